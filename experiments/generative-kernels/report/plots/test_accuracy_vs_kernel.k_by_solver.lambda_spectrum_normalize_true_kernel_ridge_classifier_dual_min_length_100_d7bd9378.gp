# kexp plot; run `gnuplot test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_100_d7bd9378.gp` here to redraw test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_100_d7bd9378.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_100_d7bd9378.svg'
set title 'spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=100 max_length=100: test accuracy against k, a line per λ'
set xlabel 'k (kernel.k)'
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
set xtics ('1' 1, '2' 2, '3' 3, '4' 4)
$line0 << EOD
1 0.7666666666666666 0.6916111316720153 0.841722201661318
2 0.7600000000000001 0.6991723746970179 0.8208276253029824
3 0.7266666666666667 0.6753506522721978 0.7779826810611356
4 0.6133333333333333 0.5811878307966901 0.6454788358699765
EOD
$line1 << EOD
1 0.7666666666666666 0.6916111316720153 0.841722201661318
2 0.7600000000000001 0.7164110105645933 0.8035889894354069
3 0.7433333333333333 0.6930011037648616 0.793665562901805
4 0.6166666666666667 0.5861161620336277 0.6472171712997057
EOD
$line2 << EOD
1 0.7666666666666666 0.6916111316720153 0.841722201661318
2 0.7600000000000001 0.7080384757729338 0.8119615242270665
3 0.7633333333333333 0.7030561955999162 0.8236104710667504
4 0.6533333333333333 0.6154739443613315 0.6911927223053351
EOD
$line3 << EOD
1 0.7633333333333333 0.6831252705632269 0.8435413961034397
2 0.7466666666666667 0.7062521478233929 0.7870811855099406
3 0.7733333333333333 0.6996221853750133 0.8470444812916533
4 0.7333333333333334 0.6431483382768756 0.8235183283897912
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'λ = 0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'λ = 0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'λ = 0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'λ = 1'
