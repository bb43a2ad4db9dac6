# kexp plot; run `gnuplot test_accuracy_vs_kernel.k.gp` here to redraw test_accuracy_vs_kernel.k.svg
set terminal svg size 1000,860 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k.svg'
set title 'test accuracy against k: spectrum normalize=true'
set xlabel 'k (kernel.k)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.1442 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.1186 left font ',12'
set label 102 'Drawn over one another, with the same errors: kernel_ridge_classifier (dual) · min_length = 20, max_length = 20 and primal_ridge' at screen 0.01, screen 0.0930 left font ',12'
set label 103 'device=cpu precision=double (primal) · min_length = 20, max_length = 20; kernel_ridge_classifier (dual) · min_length = 100,' at screen 0.01, screen 0.0674 left font ',12'
set label 104 'max_length = 100 and primal_ridge device=cpu precision=double (primal) · min_length = 100, max_length = 100.' at screen 0.01, screen 0.0419 left font ',12'
set label 105 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0163 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3, '4' 4)
$line0 << EOD
1 0.62 0.5418975032409334 0.6981024967590665
2 0.6033333333333334 0.5256587986817931 0.6810078679848737
3 0.5766666666666667 0.5116025956801895 0.6417307376531438
4 0.5733333333333334 0.5220173189388645 0.6246493477278022
EOD
$line1 << EOD
1 0.6216162296287983 0.5856059789409745 0.657626480316622
2 0.6208119801992543 0.5973923789847425 0.6442315814137661
3 0.5807990124565144 0.5331492276967471 0.6284487972162818
4 0.5574757789997381 0.5319293417343942 0.583022216265082
EOD
$line2 << EOD
1 0.62 0.5418975032409334 0.6981024967590665
2 0.6033333333333334 0.5256587986817931 0.6810078679848737
3 0.5766666666666667 0.5116025956801895 0.6417307376531438
4 0.5733333333333334 0.5220173189388645 0.6246493477278022
EOD
$line3 << EOD
1 0.6216162296287983 0.5856059789409745 0.657626480316622
2 0.6208119801992543 0.5973923789847425 0.6442315814137661
3 0.5807990124565144 0.5331492276967471 0.6284487972162818
4 0.5574757789997381 0.5319293417343942 0.583022216265082
EOD
$line4 << EOD
1 0.7799999999999999 0.6981464722812754 0.8618535277187245
2 0.7766666666666667 0.7057206778206908 0.8476126555126426
3 0.7633333333333333 0.6794683624972725 0.8471983041693941
4 0.7166666666666667 0.6523756615933803 0.780957671739953
EOD
$line5 << EOD
1 0.7791930073941072 0.7476504977920199 0.8107355169961946
2 0.7658324916769536 0.7371083686900655 0.7945566146638416
3 0.7516116161049391 0.7036895803331797 0.7995336518766984
4 0.7199341637676281 0.6936567489878768 0.7462115785473794
EOD
$line6 << EOD
1 0.7799999999999999 0.6981464722812754 0.8618535277187245
2 0.7766666666666667 0.7057206778206908 0.8476126555126426
3 0.7633333333333333 0.6794683624972725 0.8471983041693941
4 0.7166666666666667 0.6523756615933803 0.780957671739953
EOD
$line7 << EOD
1 0.7791930073941072 0.7476504977920199 0.8107355169961946
2 0.7658324916769536 0.7371083686900655 0.7945566146638416
3 0.7516116161049391 0.7036895803331797 0.7995336518766984
4 0.7199341637676281 0.6936567489878768 0.7462115785473794
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · min_length = 20, max_length = 20', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' notitle, \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge device=cpu precision=double (primal) · min_length = 20, max_length = 20', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#D55E00' notitle, \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#009E73' title 'kernel_ridge_classifier (dual) · min_length = 100, max_length = 100', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#009E73' notitle, \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_ridge device=cpu precision=double (primal) · min_length = 100, max_length = 100', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#CC79A7' notitle
