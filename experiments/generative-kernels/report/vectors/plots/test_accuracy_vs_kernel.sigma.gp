# kexp plot; run `gnuplot test_accuracy_vs_kernel.sigma.gp` here to redraw test_accuracy_vs_kernel.sigma.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.sigma.svg'
set title 'test accuracy against σ'
set xlabel 'σ (kernel.sigma)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.1' 0.1, '0.3' 0.3, '1' 1, '3' 3)
set logscale x
$line0 << EOD
0.1 0.9888888888888889 0.984077636645642 0.9937001411321359
0.3 0.9944444444444445 0.9896331922011976 0.9992556966876913
1 0.9916666666666667 0.9833333333333334 1
3 0.9888888888888889 0.9792663844023951 0.9985113933753827
EOD
$line1 << EOD
0.1 0.9916666666666667 0.9833333333333334 1
0.3 0.99375 0.9868554144234198 1.0006445855765802
1 0.9951388888888889 0.9882443033123087 1.002033474465469
3 0.9881944444444444 0.980977566079574 0.9954113228093148
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian map=none · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' notitle
