# kexp plot; run `gnuplot test_accuracy_vs_kernel.components_by_solver.lambda_fisher_information_empirical_kernel_ridge_classifier_dual.gp` here to redraw test_accuracy_vs_kernel.components_by_solver.lambda_fisher_information_empirical_kernel_ridge_classifier_dual.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.components_by_solver.lambda_fisher_information_empirical_kernel_ridge_classifier_dual.svg'
set title 'fisher information=empirical · kernel_ridge_classifier (dual): test accuracy against components, a line per λ'
set xlabel 'components (kernel.components)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '4' 4, '8' 8)
set logscale x
$line0 << EOD
1 0.9916666666666667 0.9916666666666667 0.9916666666666667
2 0.9916666666666667 0.9916666666666667 0.9916666666666667
4 0.9944444444444445 0.9896331922011976 0.9992556966876913
8 0.9916666666666667 0.9833333333333334 1
EOD
$line1 << EOD
1 0.9916666666666667 0.9916666666666667 0.9916666666666667
2 0.9916666666666667 0.9916666666666667 0.9916666666666667
4 0.9944444444444445 0.9896331922011976 0.9992556966876913
8 0.9916666666666667 0.9833333333333334 1
EOD
$line2 << EOD
1 0.9916666666666667 0.9916666666666667 0.9916666666666667
2 0.9916666666666667 0.9916666666666667 0.9916666666666667
4 0.9944444444444445 0.9896331922011976 0.9992556966876913
8 0.9916666666666667 0.9833333333333334 1
EOD
$line3 << EOD
1 0.9916666666666667 0.9916666666666667 0.9916666666666667
2 0.9916666666666667 0.9916666666666667 0.9916666666666667
4 0.9944444444444445 0.9896331922011976 0.9992556966876913
8 0.9916666666666667 0.9833333333333334 1
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'λ = 0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'λ = 0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'λ = 0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'λ = 1'
